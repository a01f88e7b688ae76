/**
 * The CloudFront function (viewer request, cloudfront-js-2.0) that names the viewer's address to
 * the API in X-Gw-Edge-Viewer, written over whatever the client sent. Behind CloudFront the HTTP
 * API's source address is the edge's, so a decision that counts by the viewer (the portal's
 * sign-in attempts per source) reads this instead; the service believes it only with the edge on,
 * where the origin's secret header shows the request came this way (shared/http/viewer-address.ts).
 */
import { Function as CfFunction, FunctionCode, FunctionRuntime } from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { EDGE_VIEWER_HEADER } from '../../shared/http/viewer-address';

export const VIEWER_ADDRESS_FUNCTION = `function handler(event) {
  var request = event.request;
  request.headers['${EDGE_VIEWER_HEADER.toLowerCase()}'] = { value: event.viewer.ip };
  return request;
}`;

export const viewerAddressFunction = (scope: Construct, id: string, functionName: string): CfFunction =>
  new CfFunction(scope, id, {
    functionName,
    comment: `The viewer's address -> ${EDGE_VIEWER_HEADER}`,
    runtime: FunctionRuntime.JS_2_0,
    code: FunctionCode.fromInline(VIEWER_ADDRESS_FUNCTION),
  });

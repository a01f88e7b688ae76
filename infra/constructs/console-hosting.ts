/**
 * The web console in the cloud (docs/using/console.md), a nested stack of the stage:
 *
 *   browser --HTTPS--> CloudFront ─┬─ /console/* and the rest ──OAC──> private S3 bucket (console/dist)
 *                                  └─ /api/*, /admin/*, /portal/* ──HTTPS──> the HTTP API (the same routes the CLI uses)
 *
 * - One origin for the browser: the console calls `/api/...` (and its admin side `/admin/...`, the
 *   developer portal's web app `/portal/...`) on its own domain, so no CORS.
 * - The bucket is private (all public access blocked, TLS only, S3-managed encryption); only
 *   CloudFront reads it, through origin access control, and only for this distribution.
 * - Every file is answered with the console's strict Content-Security-Policy and security headers
 *   (console/host/headers.ts, the ones the local stages send) by a response headers policy; a
 *   viewer-request function answers index.html for the app's page paths (portal/index.html under
 *   /console/portal/) and redirects `/` and
 *   `/console` to `/console/`.
 * - The files come from `npm run console:build`, run by synth's local bundling (no Docker), and
 *   are uploaded by a BucketDeployment: hashed assets cached for a year, the rest revalidated,
 *   stale ones pruned, all of them removed with the stack.
 * - edge=on (infra/constructs/edge.ts): the distribution carries the stage's web ACL as well and
 *   sends X-Origin-Verify to the API, which then refuses requests that did not come through
 *   CloudFront. The console keeps its own distribution either way (one design for both): the
 *   edge's distribution stays the API's own, with no S3 behaviour in it.
 * A nested stack, because the stage stack's resources are counted for the route functions (and
 * the deployment's Python function is no route function).
 */
import { AssetHashType, Aws, DockerImage, Duration, NestedStack, RemovalPolicy, type NestedStackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { cpSync } from 'node:fs';
import { CONSOLE_DIR, DIST_DIR, ensureConsoleBuilt, STAMP_FILE } from '../../console/host/build';
import { CONTENT_SECURITY_POLICY } from '../../console/host/headers';
import { viewerAddressFunction } from './viewer-address';
import { ORIGIN_VERIFY_HEADER } from '../../shared/http/origin-verify';

/** The names a stage's console resources take (the CloudFormation execution policy names them too). */
export const consoleNames = (prefix: string) => ({
  /** Globally unique: the account and region are part of it. */
  bucket: `${prefix}-console-${Aws.ACCOUNT_ID}-${Aws.REGION}`,
  /** CloudFront functions are global to the account: the stage prefix tells them apart. */
  pagesFunction: `${prefix}-console-pages`,
  viewerFunction: `${prefix}-console-viewer`,
  deploymentLogs: `/${prefix}/console-deployment`,
});

/** The viewer-request function (cloudfront-js-2.0): the app's page paths get index.html, the developer portal's its own page. */
export const PAGES_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/' || uri === '/console') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: '/console/' } } };
  }
  if (uri.indexOf('/console/') === 0 && uri.substring(uri.lastIndexOf('/') + 1).indexOf('.') === -1) {
    request.uri = uri === '/console/portal' || uri.indexOf('/console/portal/') === 0 ? '/console/portal/index.html' : '/console/index.html';
  }
  return request;
}`;

/** Files the build writes beside the app that are never uploaded (its input stamp, Vite's manifest). */
const NOT_UPLOADED = [STAMP_FILE, '.vite/*'];
/** Not content-hashed: revalidated on every load (index.html names the hashed assets). */
const UNHASHED = ['index.html', 'portal/index.html', 'favicon.svg'];

export interface ConsoleHostingProps extends NestedStackProps {
  api: HttpApi;
  /** The stage's name prefix (infra/config.ts stageNames). */
  prefix: string;
  /** The stage's removal policy for its log groups. */
  logRemoval: RemovalPolicy;
  /** edge=on: the web ACL and the X-Origin-Verify value (a dynamic reference) of the stage's edge. */
  edge?: { webAclArn: string; originVerifyValue: string };
}

export class ConsoleHosting extends NestedStack {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly deploymentFunctions: Construct[];
  /** edge=on: the distribution carries the stage's web ACL. */
  readonly behindWebAcl: boolean;

  constructor(scope: Construct, id: string, props: ConsoleHostingProps) {
    super(scope, id, props);
    const names = consoleNames(props.prefix);
    this.behindWebAcl = props.edge !== undefined;

    this.bucket = new Bucket(this, 'Files', {
      bucketName: names.bucket,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // The files are rebuilt by every deploy: nothing in the bucket is worth keeping.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: `${props.prefix} console: Content-Security-Policy and security headers`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    const pages = new CfFunction(this, 'PagePaths', {
      functionName: names.pagesFunction,
      comment: 'Console page paths -> /console/index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(PAGES_FUNCTION),
    });

    const viewer = viewerAddressFunction(this, 'ViewerAddress', names.viewerFunction);
    const apiOrigin = new HttpOrigin(`${props.api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      ...(props.edge ? { customHeaders: { [ORIGIN_VERIFY_HEADER]: props.edge.originVerifyValue } } : {}),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${props.prefix} console`,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        functionAssociations: [{ function: pages, eventType: FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      // The dashboard and admin groups: what the console's two sides call, exactly as the API answers it;
      // the developer portal's routes, which its web app (/console/portal/) calls.
      additionalBehaviors: Object.fromEntries(
        ['/api/*', '/admin/*', '/portal/*'].map((path) => [
          path,
          {
            origin: apiOrigin,
            allowedMethods: AllowedMethods.ALLOW_ALL,
            cachePolicy: CachePolicy.CACHING_DISABLED,
            originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
            viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
            // The portal's sign-in counts attempts by the viewer's address, not the edge's.
            ...(path === '/portal/*' ? { functionAssociations: [{ function: viewer, eventType: FunctionEventType.VIEWER_REQUEST }] } : {}),
          },
        ]),
      ),
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(props.edge ? { webAclId: props.edge.webAclArn } : {}),
    });

    // Synth builds the console (or reuses a console/dist built from the same sources) without Docker.
    const files = Source.asset(CONSOLE_DIR, {
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:20'),
        local: {
          tryBundle(outputDir: string) {
            ensureConsoleBuilt((line) => process.stderr.write(`${line}\n`));
            cpSync(DIST_DIR, outputDir, { recursive: true });
            return true;
          },
        },
      },
    });
    const logGroup = new LogGroup(this, 'DeploymentLogs', {
      logGroupName: names.deploymentLogs,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemoval,
    });
    const common = { sources: [files], destinationBucket: this.bucket, destinationKeyPrefix: 'console/', retainOnDelete: false, memoryLimit: 512, logGroup };
    const assets = new BucketDeployment(this, 'Assets', {
      ...common,
      exclude: [...NOT_UPLOADED, ...UNHASHED],
      cacheControl: [CacheControl.setPublic(), CacheControl.maxAge(Duration.days(365)), CacheControl.immutable()],
      prune: true,
    });
    const unhashed = new BucketDeployment(this, 'Entry', {
      ...common,
      exclude: ['*'],
      include: UNHASHED,
      cacheControl: [CacheControl.noCache()],
      prune: false,
    });
    // The app's entry after the assets it names, so no load finds an index.html ahead of its files.
    unhashed.node.addDependency(assets);
    this.deploymentFunctions = this.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  }
}

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../errors';
import { newDbId } from '../domain/hashing';
import type { OrganisationInput, Organisation } from '../schemas/organisations';
import { ddb, tableName } from './client';
import { getItem, isConditionFailure, stripItem } from './items';
import { keys } from './keys';

/** Creates an organisation; a taken id is 409 (one conditional Put, no read first). */
export async function createOrganisation(input: OrganisationInput): Promise<Organisation> {
  const now = new Date().toISOString();
  const id = input.id ?? newDbId();
  const org = { ...input, id, created_at: now, updated_at: now, version: 1 };
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.org(id), entity: 'org', ...org },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (e) {
    if (isConditionFailure(e)) throw new Conflict(`organisation ${id} already exists`);
    throw e;
  }
  return org;
}

/** Condition for transactions that need the organisation to exist (422 when it does not). */
export function orgExistsCheck(orgId: string) {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.org(orgId),
      ConditionExpression: 'attribute_exists(PK)',
    },
  };
}

/**
 * One adapter per kind of object: where its files go, which schema of the document checks them,
 * and its transport (which credential group's routes read and write it). The adapters are the only
 * place that knows routes; the plan and the sync work on files.
 */
import type { Clients } from '../client';
import type { ConfigObject, Kind } from '../model';

/** An object as the service holds it, mapped to its file form. */
export interface Live {
  key: string;
  object: ConfigObject;
  /** The version the read saw (sent back as If-Match); absent where the service sends none. */
  etag?: string;
  /** What an update must send back that files leave out (database ids, version lists...). */
  state: Record<string, unknown>;
}

/** Hook ids both ways: files name hooks, definitions name hook ids. */
export class HookIds {
  readonly idByName = new Map<string, string>();
  readonly nameById = new Map<string, string>();
  add(id: string, name: string) {
    this.idByName.set(name, id);
    this.nameById.set(id, name);
  }
}

export interface Ctx {
  clients: Clients;
  /** The organisation of the dashboard key. */
  org: string;
  hooks: HookIds;
  /** api_ids of the organisation's APIs (read before the kinds that hang off APIs). */
  apiIds: string[];
}

export interface KindAdapter {
  kind: Kind;
  /** Folder of its files. */
  dir: string;
  /** Which group's routes this kind uses, for the help text and docs/using/configuration-as-code.md. */
  transport: string;
  /** The component of the OpenAPI document a file's `spec` must match. */
  schema: string;
  keyOf(o: ConfigObject): string;
  /** Path of its file inside the folder. */
  fileOf(o: ConfigObject): string;
  /** The object's tags for --select-tag; undefined: the kind carries none. */
  tagsOf(o: ConfigObject): string[] | undefined;
  read(ctx: Ctx): Promise<Live[]>;
  /** Creates the object (the file's references resolved); answers nothing the plan needs beyond success. */
  create(ctx: Ctx, o: ConfigObject, idempotencyKey: string): Promise<void>;
  update(ctx: Ctx, live: Live, o: ConfigObject, ifMatch: string | undefined): Promise<void>;
  remove(ctx: Ctx, live: Live, ifMatch: string | undefined): Promise<void>;
}

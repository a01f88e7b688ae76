/**
 * Documented input limits (docs/reference/limits.md). Layer-neutral: the body parser, the schemas, the
 * domain and the store all read them.
 */
export const LIMITS = {
  bodyBytes: 5 * 1024 * 1024,
  /** Any JSON body, counting the body itself as the first level. */
  jsonDepth: 64,
  /**
   * A body stored as DynamoDB attributes (keys, policies, organisations, OAuth clients), counting
   * the body as the first level. DynamoDB holds 32 levels counting the item; a key's session sits
   * one level inside its item (so does an organisation's), and a policy's access rights are copied
   * into the sessions of the keys that apply it, so every such body gets the session's 31.
   */
  storedDepth: 31,
  /**
   * Characters of a member name in a body stored as DynamoDB attributes. DynamoDB refuses an empty
   * attribute name and any over 64 KB (DynamoDB Local over 50,000 bytes): this bound is far inside both.
   */
  storedNameChars: 1024,
  shortString: 1024,
  longString: 64 * 1024,
  /** URLs anywhere (upstreams, servers, the URL members of an OpenAPI document). */
  url: 2048,
  arrayItems: 10_000,
  /**
   * The path an external authorization is asked about. It rides in the request line, which with
   * the headers must fit what the stage reads (API Gateway 10,240 bytes, Node's 16 KB locally):
   * 1,024 characters do even when every one is percent-encoded UTF-8 on the local stage.
   */
  forwardedPath: 1024,
  /** YAML aliases in one document, all anchors together. */
  yamlAliases: 100,
  /**
   * A stored definition as JSON (an OpenAPI document of up to 5 MB plus its classic form, or a
   * template): refused above this on write, and no read decompresses more.
   */
  storedJsonBytes: 12 * 1024 * 1024,
  /** Lambda's response limit; bigger answers are refused (lists: before they are built). */
  responseBytes: 6_000_000,
  /**
   * What one list request may read of stored items, as DynamoDB counts it (whole items, even when
   * only keys are asked for), whatever the list holds: room for a page number's skip of one
   * DynamoDB Query (1 MB and the item that crosses it) and the page's first Query after it.
   */
  listReadBytes: 3_000_000,
} as const;

/**
 * A key's or a policy's path rules (`access_rights[*].allowed_urls`, all its APIs together;
 * docs/reference/limits.md). The check runs them as one RE2 automaton per access entry, whose cost grows
 * with its program, so both the rules and their program are bounded on every write.
 */
export const ALLOWED_URL_LIMITS = {
  rules: 100,
  /** RE2 instructions of all the rules together, as re2js `programSize()` counts each rule's. */
  program: 5_000,
} as const;

/**
 * Per-organisation limits of dashboard requests, spent once a request is authenticated, allowed
 * by the user's permissions and valid (docs/reference/limits.md): units per fixed window, by class. The
 * environment may change each (shared/config.ts).
 */
export const ORG_LIMITS = {
  /** Every dashboard read (spent while the read runs, shared/http/middleware/org-limit.ts). */
  reads: { perWindow: 1200, env: 'ORG_READ_LIMIT' },
  /** Every dashboard write but the webhook test and redelivery. */
  writes: { perWindow: 600, env: 'ORG_WRITE_LIMIT' },
  /** POST /api/hooks/{hookID}/test and .../redeliver: each sends a request to a receiver. */
  hookTest: { perWindow: 60, env: 'ORG_HOOK_TEST_LIMIT' },
  /** Every request of an organisation's developer portal (its public and developer routes), whoever sends it. */
  portal: { perWindow: 600, env: 'ORG_PORTAL_LIMIT' },
} as const;
export type OrgLimitClass = keyof typeof ORG_LIMITS;
/** The fixed window every class counts in, aligned to the epoch (so to the minute). */
export const ORG_LIMIT_WINDOW_SECONDS = 60;
/** The largest limit the environment may set. */
export const ORG_LIMIT_MAX = 1_000_000;

/**
 * Webhook fan-out (docs/reference/limits.md, contract §11): what one organisation's hooks and one event may
 * cost the shared delivery. Writes past them are refused; routing applies them again, so
 * definitions stored before they existed cannot fan out further.
 */
export const WEBHOOK_LIMITS = {
  /** Webhooks of one organisation (409 on `POST /api/hooks`, exact under concurrency). */
  hooksPerOrg: 100,
  /** The most an installation admin may allow one organisation (its `limits.hooks`). */
  hooksPerOrgMax: 1000,
  /** Webhook event handlers (entries naming a hook or an inline target) in one API definition. */
  handlersPerApi: 100,
  /** Distinct webhooks one event of one API reaches. */
  hooksPerEvent: 20,
  /** APIs of a key whose handlers one key event is routed through (the first by id). */
  apisPerKeyEvent: 100,
  /** Deliveries one change-feed record makes (a key event through all of its APIs). */
  deliveriesPerRecord: 100,
  /** Attempts of one organisation in flight at once, across every delivery worker. */
  attemptsInFlightPerOrg: 10,
} as const;

/**
 * The developer portal (docs/using/developer-portal.md). Sign-in attempts count in fixed windows,
 * per account (organisation and e-mail) and per source address, whether they succeed or not, so
 * guessing is slow for one account and for one source across many accounts.
 */
export const PORTAL_LIMITS = {
  signInWindowSeconds: 900,
  signInsPerAccount: 10,
  signInsPerSource: 100,
  /** A developer's pending and approved requests at once (each approved one holds a key). */
  openRequestsPerDeveloper: 20,
  sessionSeconds: 12 * 3600,
  invitationSeconds: 7 * 24 * 3600,
} as const;

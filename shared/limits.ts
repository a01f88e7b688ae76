/**
 * Documented input limits (README "Limits"). Layer-neutral: the body parser, the schemas, the
 * domain and the store all read them.
 */
export const LIMITS = {
  bodyBytes: 5 * 1024 * 1024,
  jsonDepth: 64,
  shortString: 1024,
  longString: 64 * 1024,
  /** URLs anywhere (upstreams, servers, the URL members of an OpenAPI document). */
  url: 2048,
  arrayItems: 10_000,
  /** YAML aliases in one document, all anchors together. */
  yamlAliases: 100,
  /**
   * A stored definition as JSON (an OpenAPI document of up to 5 MB plus its classic form, or a
   * template): refused above this on write, and no read decompresses more.
   */
  storedJsonBytes: 12 * 1024 * 1024,
  /** Lambda's response limit; bigger answers are refused (lists: before they are built). */
  responseBytes: 6_000_000,
} as const;

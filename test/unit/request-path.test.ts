/**
 * The path a routing decision is made on (contract §13): each spelling the trust-boundary review
 * tried, with the path it is decided as, or its refusal.
 */
import { describe, expect, it } from 'vitest';
import { decidedPath, headerText } from '../../shared/domain/request-path';

const decided = (raw: string, decoded = false) => {
  const d = decidedPath(raw, { decoded });
  return d.ok ? d.path : `refused: ${d.reason}`;
};

describe('the decided path: RFC 3986 normal form, or a refusal', () => {
  it.each([
    ['/books/x', '/books/x'],
    ['/books/../books/admin/x', '/books/admin/x'],
    ['/books/%2e%2e/books/admin/x', '/books/admin/x'],
    ['/books/%2E%2E/books/admin/x', '/books/admin/x'],
    ['/books/./admin/x', '/books/admin/x'],
    ['/books/%61dmin/x', '/books/admin/x'],
    ['/books/public/../private/a', '/books/private/a'],
    ['/books/public/%2e%2e/private/a', '/books/private/a'],
    ['/books//admin///x', '/books/admin/x'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/books/', '/books/'],
    ['/books/x/..', '/books/'],
    ['/books/x/.', '/books/x/'],
    ['/', '/'],
    ['/a%3fb', '/a%3Fb'],
    ['/a%7e%41', '/a~A'],
    ['/caf\u00e9', '/caf%C3%A9'],
    ['/a b', '/a%20b'],
    ["/a:b@c!$&'()*+,=", "/a:b@c!$&'()*+,="],
    ['/a%252F', '/a%252F'],
  ])('%s is decided as %s', (raw, path) => {
    expect(decided(raw)).toBe(path);
  });

  it.each([
    ['/books/admin%2Fx', 'an encoded / or \\ in the path'],
    ['/books/admin%2fx', 'an encoded / or \\ in the path'],
    ['/books/admin%5Cx', 'an encoded / or \\ in the path'],
    ['/books/admin\\x', 'a backslash in the path'],
    ['/books/admin;x/x', 'a ; parameter in a path segment'],
    ['/books;jsessionid=1/x', 'a ; parameter in a path segment'],
    ['/books/%00', 'an encoded NUL in the path'],
    ['/books/%zz', 'a % that starts no percent-encoding'],
    ['/books/%4', 'a % that starts no percent-encoding'],
  ])('%s is refused: %s', (raw, reason) => {
    expect(decided(raw)).toBe(`refused: ${reason}`);
  });

  it('a path read from a header (one Latin-1 character per byte) is read as the UTF-8 it was sent as', () => {
    expect(decided(headerText('/caf\u00c3\u00a9'))).toBe('/caf%C3%A9');
    expect(headerText('/plain')).toBe('/plain');
  });

  it('a path handed over decoded (API Gateway) reads % as data and still removes dot segments', () => {
    expect(decided('/books/50%/x', true)).toBe('/books/50%25/x');
    expect(decided('/books/../admin/x', true)).toBe('/admin/x');
    expect(decided('/books/a;b', true)).toBe('refused: a ; parameter in a path segment');
    expect(decided('/books/a\\b', true)).toBe('refused: a backslash in the path');
  });
});

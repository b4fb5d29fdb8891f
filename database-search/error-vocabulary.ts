/**
 * What an error prints beside the words people describe it with, as English
 * full-text lexemes, from general references rather than from any record:
 * the error names of errno(3) with their strerror(3) texts (`ECONNREFUSED`,
 * "Connection refused"), the signal names of signal(7) with what a shell
 * prints for them (`SIGSEGV`, "Segmentation fault"), the HTTP status codes
 * of RFC 9110 with their reason phrases (`403`, "Forbidden"), and a few
 * names of one mechanism (CORS and its preflight, x509 certificates). A symptom in words says `permission denied` where the
 * record's literal says `EACCES`; each group is one term, as an alias group
 * is (term-aliases.ts). Only a code whose description has a word of its own
 * is listed: `EADDRINUSE` ("Address already in use") and `ENOENT` ("No such
 * file or directory") have none that records do not share by chance, and
 * a word people use in other senses (`killed` for `SIGKILL`, `reset`,
 * `space`, `pipe`, `abort`) would join a symptom to records of that code
 * by chance. SSL and TLS are not joined: errors print them as the names of
 * different libraries (OpenSSL's `SSL routines`, Go's `tls:`), and joining
 * them lost a quoted `SSL certificate problem` its record in the evaluation.
 */
export const ERROR_VOCABULARY: readonly (readonly string[])[] = [
  // errno(3) and strerror(3); Node's DNS failure (ENOTFOUND) is getaddrinfo's.
  ['econnrefus', 'refus'],
  ['etimedout', 'timeout'],
  ['eacc', 'permiss'],
  ['ehostunreach', 'enetunreach', 'unreach'],
  ['enotfound', 'getaddrinfo', 'dns'],
  ['enomem', 'oom', 'oomkil'],
  // signal(7).
  ['sigsegv', 'segfault', 'segment'],
  // RFC 9110 status codes with a reason phrase of their own.
  ['401', 'unauthor'],
  ['403', 'forbidden'],
  ['429', 'toomanyrequest'],
  ['503', 'unavail'],
  // One mechanism, several names.
  ['cor', 'preflight', 'access-control-allow-origin'],
  ['certif', 'x509'],
];

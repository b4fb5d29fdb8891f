/**
 * A software authenticator for the passkey ceremonies, as a script (or an
 * attacker) drives them without a browser: an ES256 key pair, attestation
 * `none`, and the authenticator data and signatures WebAuthn specifies. The
 * server checks them with @simplewebauthn/server exactly as it checks a
 * browser's. The browser tests use Chromium's virtual authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { CookieJar } from './oauth.ts';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export class SoftwarePasskey {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;
  userHandle = '';
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  private authenticatorData(rpId: string, attested: boolean): Buffer {
    this.counter += 1;
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const flags = Buffer.from([0x05 | (attested ? 0x40 : 0)]);
    const head = Buffer.concat([sha256(rpId), flags, u32(this.counter)]);
    if (!attested) return head;
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    return Buffer.concat([head, Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(coseKey))]);
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create's answer to the server's registration options. */
  create(options: { challenge: string; rp: { id: string }; user: { id: string } }) {
    this.userHandle = options.user.id;
    const authData = this.authenticatorData(options.rp.id, true);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get's answer to the server's authentication options. */
  get(options: { challenge: string; rpId: string }) {
    const authData = this.authenticatorData(options.rpId, false);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
    };
  }
}

/** One passkey ceremony request, as /account/signin's script sends it. */
export async function ceremony(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  jar?: CookieJar,
) {
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...headers },
    body: JSON.stringify(body),
  };
  const res = jar ? await jar.fetch(`${base}${path}`, init) : await fetch(`${base}${path}`, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Sign-up with a new software passkey: the account's identity id, or the refusal. */
export async function passkeySignUp(
  base: string,
  handle: string,
  headers: Record<string, string> = {},
  jar?: CookieJar,
) {
  const passkey = new SoftwarePasskey(base);
  const options = await ceremony(base, '/account/passkeys/register/options', { handle }, headers, jar);
  if (options.status !== 200) return { status: options.status, body: options.body, passkey };
  const done = await ceremony(
    base,
    '/account/passkeys/register',
    {
      ceremony: options.body.ceremony,
      response: passkey.create(options.body.options),
    },
    headers,
    jar,
  );
  return { status: done.status, body: done.body, passkey, identityId: done.body?.identity?.id as string | undefined };
}

/** Sign-in with an existing software passkey. */
export async function passkeySignIn(
  base: string,
  passkey: SoftwarePasskey,
  jar: CookieJar,
  headers: Record<string, string> = {},
) {
  const options = await ceremony(base, '/account/passkeys/signin/options', {}, headers, jar);
  if (options.status !== 200) return options;
  return ceremony(
    base,
    '/account/passkeys/signin',
    { ceremony: options.body.ceremony, response: passkey.get(options.body.options) },
    headers,
    jar,
  );
}

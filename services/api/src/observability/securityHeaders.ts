import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import helmet from 'helmet';

/** Google's profile pictures (a Google sign-in keeps the account's `https` picture URL). */
export const GOOGLE_IMAGE_HOSTS = ['https://*.googleusercontent.com'];

/**
 * The CSP hashes (`'sha256-…'`) of the inline scripts in the built `index.html`: its colour-mode
 * script runs before the first paint. Allowing exactly those bytes keeps `script-src` free of
 * `'unsafe-inline'`; a changed script gets its new hash at the next start (the build runs first).
 */
export function inlineScriptHashes(indexHtml: string): string[] {
  if (!existsSync(indexHtml)) return [];
  const html = readFileSync(indexHtml, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? '';
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * What the ElevenLabs browser SDK needs when the voice guide runs on ElevenLabs Agents: its
 * conversation sockets (every region is a subdomain of elevenlabs.io), its audio worklets (built
 * as `blob:` modules) and the sample-rate converter it loads from jsDelivr where the browser
 * cannot resample the microphone itself. Without a key (the offline guide) none of it is allowed.
 */
export const ELEVENLABS_SOURCES = {
  connect: ['wss://*.elevenlabs.io', 'https://*.elevenlabs.io'],
  // The one file of jsDelivr the SDK loads (the version it pins), not the whole CDN.
  script: [
    'blob:',
    'https://cdn.jsdelivr.net/npm/@alexanderolsen/libsamplerate-js@2.1.2/dist/libsamplerate.worklet.js',
  ],
};

/**
 * Security headers on every answer (the web app's pages and files, and the API), with a strict
 * Content-Security-Policy:
 * - scripts only from our origin (plus the hashes of `index.html`'s own inline script);
 * - styles from our origin and inline: Chakra UI styles through emotion, which writes `<style>`
 *   elements at run time (no nonce is wired through emotion's cache);
 * - images from our origin and Google's picture hosts; requests (`fetch`) to our origin;
 * - with ElevenLabs configured, what its voice SDK needs (`ELEVENLABS_SOURCES`);
 * - no plugins, no `<base>`, forms post to our origin, and no framing (`frame-ancestors 'none'`).
 * HSTS and `upgrade-insecure-requests` only in production (served over HTTPS).
 */
export function securityHeaders(options: {
  production: boolean;
  indexHtml: string;
  /** The voice guide talks to ElevenLabs from the browser (ELEVENLABS_API_KEY is set). */
  elevenLabs?: boolean;
}) {
  const voice = options.elevenLabs ? ELEVENLABS_SOURCES : { connect: [], script: [] };
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(options.indexHtml), ...voice.script],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", ...GOOGLE_IMAGE_HOSTS],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...voice.connect],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The browser's Origin header on our own POSTs stays (crossSite.ts reads it): not no-referrer.
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: options.production ? { maxAge: 31_536_000 } : false,
    xFrameOptions: { action: 'deny' },
  });
}

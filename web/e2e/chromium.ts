import { existsSync } from 'node:fs';

/**
 * Debian's Chromium (never a downloaded browser) and the flags this machine class needs: no
 * sandbox as root, no GPU, and none of the background connections a closed network refuses.
 */
const args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** The whole browser: Lighthouse audits what a visitor's Chromium does. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests run in Debian's `chromium-headless-shell` where it is installed: the same
 * Chromium without its window system, which takes about a fifth less time over the suite.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';

export const chromiumLaunchOptions = {
  executablePath:
    process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : chromiumPath),
  args,
};

/**
 * Debian's Chromium (never a downloaded browser) and the flags this machine class needs: no
 * sandbox as root, no GPU, and none of the background connections a closed network refuses.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
};

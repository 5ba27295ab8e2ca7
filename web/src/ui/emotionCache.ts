import createCache, { type EmotionCache, type StylisPlugin } from '@emotion/cache';

/**
 * Safari still reads `user-select` only with its prefix: the one prefix Astra's styles need in
 * the browsers it supports (`-webkit-` flexbox, transforms and keyframes are a decade old).
 */
const webkitUserSelect: StylisPlugin = (element) => {
  if (element.type === 'decl' && element.props === 'user-select' && !element.return)
    element.return = `-webkit-${element.value}${element.value}`;
};

/** One array, so that emotion keeps one server-side cache of serialized rules for it. */
const stylisPlugins = [webkitUserSelect];

/**
 * Emotion's cache without its default prefixer, which writes three or four copies of every
 * flexbox, transform and keyframes rule (and `-ms-translate`, which no browser reads): a third of
 * the styles a drawn page carries in its HTML, read by the phone before it draws anything.
 * A cache per render on the server (a cache emits each style once), one in the browser.
 */
export const makeEmotionCache = (): EmotionCache => createCache({ key: 'css', stylisPlugins });

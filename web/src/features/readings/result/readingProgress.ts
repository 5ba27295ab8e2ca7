import { createContext, useContext } from 'react';

/** Where the text of the reading on the page is: still being written, its connection lost. */
export interface ReadingProgress {
  writing: boolean;
  reconnecting: boolean;
}

/** A text that is all there. */
export const WRITTEN: ReadingProgress = { writing: false, reconnecting: false };

export const ReadingProgressContext = createContext<ReadingProgress>(WRITTEN);

/** The text's progress for the report below a result page (written, when nothing says else). */
export const useReadingProgress = () => useContext(ReadingProgressContext);

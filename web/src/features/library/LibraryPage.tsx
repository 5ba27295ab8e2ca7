import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the library is built. */
export default function LibraryPage() {
  return (
    <ComingSoonPage
      title="Your Cosmic Library"
      description="Every reading you have received, to search, reopen and keep."
    />
  );
}

import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the compatibility result screen is built. */
export default function CompatibilityResultPage() {
  return (
    <ComingSoonPage
      title="Compatibility Reading"
      description="Your compatibility score and the full analysis."
    />
  );
}

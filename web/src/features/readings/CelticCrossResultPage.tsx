import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the Celtic Cross result screen is built. */
export default function CelticCrossResultPage() {
  return (
    <ComingSoonPage
      title="Your Celtic Cross Reading"
      description="Your ten cards and their meaning, position by position."
    />
  );
}

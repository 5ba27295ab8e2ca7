import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the tarot result screen is built. */
export default function TarotResultPage() {
  return (
    <ComingSoonPage
      title="Your Tarot Reading"
      description="Your three cards and what they say about your question."
    />
  );
}

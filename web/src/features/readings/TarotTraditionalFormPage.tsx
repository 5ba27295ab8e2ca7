import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the tarot form is built. */
export default function TarotTraditionalFormPage() {
  return (
    <ComingSoonPage
      title="Tarot Traditional"
      description="Ask a question and draw three cards for your past, present and future."
    />
  );
}

import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the Celtic Cross form is built. */
export default function CelticCrossFormPage() {
  return (
    <ComingSoonPage
      title="Tarot Celtic Cross"
      description="Ask a big question and draw the ten-card Celtic Cross."
    />
  );
}

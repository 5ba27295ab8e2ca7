import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the life path result screen is built. */
export default function LifePathResultPage() {
  return (
    <ComingSoonPage
      title="Your Life Path Reading"
      description="Your life path, destiny and soul urge numbers, explained."
    />
  );
}

import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the pricing screen is built. */
export default function PricingPage() {
  return (
    <ComingSoonPage
      title="Choose Your Journey"
      description="Monthly plans and one-time credit packs."
    />
  );
}

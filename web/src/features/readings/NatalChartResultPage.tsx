import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the natal chart result screen is built. */
export default function NatalChartResultPage() {
  return (
    <ComingSoonPage
      title="Natal Birth Chart"
      description="Your chart wheel and full natal report."
    />
  );
}

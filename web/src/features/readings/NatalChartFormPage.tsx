import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the natal chart form is built. */
export default function NatalChartFormPage() {
  return (
    <ComingSoonPage
      title="Natal Birth Chart"
      description="Enter your birth date, time and place to draw your natal chart."
    />
  );
}

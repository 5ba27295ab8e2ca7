import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the compatibility form is built. */
export default function CompatibilityFormPage() {
  return (
    <ComingSoonPage
      title="Compatibility Reading"
      description="Enter the birth details of two people to see how their charts meet."
    />
  );
}

import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the life path form is built. */
export default function LifePathFormPage() {
  return (
    <ComingSoonPage
      title="Life Path Number"
      description="Enter your name and birth date to find your life path number."
    />
  );
}

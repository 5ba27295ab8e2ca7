import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the payment screens are built. */
export default function PaymentSuccessPage() {
  return (
    <ComingSoonPage
      title="Payment Successful!"
      description="After a purchase this page confirms the credits added to your balance."
    />
  );
}

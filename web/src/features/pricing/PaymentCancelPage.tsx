import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the payment screens are built. */
export default function PaymentCancelPage() {
  return (
    <ComingSoonPage
      title="Payment Canceled"
      description="If you leave checkout early this page confirms that no charge was made."
    />
  );
}

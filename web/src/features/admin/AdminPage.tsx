import { ComingSoonPage } from '../../ui/ComingSoonPage';

/** Placeholder until the admin panel is built. */
export default function AdminPage() {
  return <ComingSoonPage title="Admin Panel" description="Staff tools for users and credits." />;
}

import { useLocation } from 'react-router';
import { Redirect } from '../../app/drawing';
import { PageTitle } from '../../ui/PageTitle';
import { useGetMeQuery } from '../auth/authApi';
import { useSessionEndedArrival } from '../auth/sessionEnd';
import { callbackUrlFor, carriesSignInParams } from '../auth/signInParams';
import { ClosingCtaSection } from './ClosingCtaSection';
import { FaqSection } from './FaqSection';
import { HeroSection } from './HeroSection';
import { HowItWorksSection } from './HowItWorksSection';
import { OfferingsSection } from './OfferingsSection';
import { TestimonialsSection } from './TestimonialsSection';
import { VoiceGuideSection } from './VoiceGuideSection';

/**
 * '/': sign-in returns that land here go on to /auth/callback, signed-in people go to their
 * dashboard, everyone else sees the landing page (spec §2).
 */
export default function LandingPage() {
  const location = useLocation();
  const { data: me } = useGetMeQuery();
  // Arriving after account deletion: the cached user is stale until the cache reset lands.
  const sessionEnded = useSessionEndedArrival();

  if (carriesSignInParams(location.search)) {
    return <Redirect to={callbackUrlFor(location.search)} />;
  }
  if (me && !sessionEnded) return <Redirect to="/app" />;

  return (
    <>
      <PageTitle>Speak to the stars</PageTitle>
      <HeroSection />
      <OfferingsSection />
      <VoiceGuideSection />
      <HowItWorksSection />
      <TestimonialsSection />
      <FaqSection />
      <ClosingCtaSection />
    </>
  );
}

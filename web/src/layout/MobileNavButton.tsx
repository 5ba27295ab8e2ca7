import type { Me } from '@astra/contracts';
import { IconButton } from '@chakra-ui/react';
import { Menu } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';

const MobileNavDrawer = lazy(() => import('./MobileNavDrawer'));

/** The hamburger below 768 px; the drawer's code loads on the first press. */
export function MobileNavButton({ me }: { me: Me | null }) {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);

  return (
    <>
      <IconButton
        ref={buttonRef}
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        variant="ghost"
        size="sm"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <Menu aria-hidden />
      </IconButton>
      {requested && (
        <Suspense fallback={null}>
          <MobileNavDrawer
            me={me}
            open={open}
            onOpenChange={setOpen}
            finalFocus={() => buttonRef.current}
          />
        </Suspense>
      )}
    </>
  );
}

import type { Me } from '@astra/contracts';
import { Button, CloseButton, Drawer, Portal, Stack } from '@chakra-ui/react';
import { BookOpenText, Gem, History, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { useSignOut } from '../features/auth/useSignOut';
import { CreditsBadge } from '../features/credits/CreditsBadge';
import { LinkButton } from '../ui/LinkButton';

interface MobileNavDrawerProps {
  me: Me | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus returns when the drawer closes: the menu button. */
  finalFocus: () => HTMLElement | null;
}

/** Below 768 px the header's items move into this drawer (loaded on first open). */
export default function MobileNavDrawer({
  me,
  open,
  onOpenChange,
  finalFocus,
}: MobileNavDrawerProps) {
  const { signOut } = useSignOut();
  const close = () => onOpenChange(false);

  return (
    <Drawer.Root
      open={open}
      onOpenChange={(event) => onOpenChange(event.open)}
      placement="end"
      size="xs"
      finalFocusEl={finalFocus}
      unmountOnExit
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>Menu</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack as="nav" aria-label="Mobile" gap="2">
                {me ? (
                  <>
                    <CreditsBadge me={me} onNavigate={close} />
                    <LinkButton
                      to="/library"
                      variant="ghost"
                      justifyContent="flex-start"
                      onClick={close}
                    >
                      <BookOpenText aria-hidden />
                      Library
                    </LinkButton>
                    <LinkButton
                      to="/pricing"
                      variant="ghost"
                      justifyContent="flex-start"
                      onClick={close}
                    >
                      <Gem aria-hidden />
                      Buy Credits
                    </LinkButton>
                    <LinkButton
                      to="/profile"
                      variant="ghost"
                      justifyContent="flex-start"
                      onClick={close}
                    >
                      <Settings aria-hidden />
                      Profile Settings
                    </LinkButton>
                    <LinkButton
                      to="/credits"
                      variant="ghost"
                      justifyContent="flex-start"
                      onClick={close}
                    >
                      <History aria-hidden />
                      Credit History
                    </LinkButton>
                    {me.role === 'admin' && (
                      <LinkButton
                        to="/admin"
                        variant="ghost"
                        justifyContent="flex-start"
                        onClick={close}
                      >
                        <ShieldCheck aria-hidden />
                        Admin Panel
                      </LinkButton>
                    )}
                    <Button
                      variant="ghost"
                      justifyContent="flex-start"
                      onClick={() => {
                        close();
                        void signOut();
                      }}
                    >
                      <LogOut aria-hidden />
                      Sign Out
                    </Button>
                  </>
                ) : (
                  <>
                    <LinkButton to="/auth" variant="outline" onClick={close}>
                      Sign In
                    </LinkButton>
                    <LinkButton to="/auth" onClick={close}>
                      Get Started
                    </LinkButton>
                  </>
                )}
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close menu" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

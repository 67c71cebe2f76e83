import { useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../shared/auth-store.ts';
import type { LoginResult } from './api.ts';

/** Stores the session and returns the user to the screen that sent them to log in (or home). */
export function useSignedIn() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return (result: LoginResult) => {
    useAuth.getState().signIn(result.token, result.member);
    navigate(from && from !== '/login' ? from : '/', { replace: true });
  };
}

import { NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

interface PageFrameProps {
  title: string;
  children: ReactNode;
  right?: ReactNode;
  /** Where the back arrow goes when there is no history to go back to. */
  fallback?: string;
}

/** The dark header with a back arrow and the screen's title, then the screen. */
export function PageFrame({ title, children, right, fallback = '/' }: PageFrameProps) {
  const navigate = useNavigate();
  const back = () => {
    if (window.history.length > 1 && window.history.state?.idx > 0) navigate(-1);
    else navigate(fallback, { replace: true });
  };
  return (
    <>
      <header className="hy-header">
        <NavBar onBack={back} right={right}>
          {title}
        </NavBar>
      </header>
      <main className="hy-content">{children}</main>
    </>
  );
}

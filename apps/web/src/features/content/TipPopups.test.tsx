// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tips } from './api.ts';
import { SECOND_TIP_DELAY_MS, TipPopups } from './TipPopups.tsx';

interface Shown {
  title: string;
  onConfirm?: () => void;
}

const shown = vi.hoisted(() => [] as Shown[]);
const tips = vi.hoisted(() => ({ data: undefined as Tips | undefined }));
vi.mock('antd-mobile', () => ({
  Dialog: { alert: (options: Shown) => shown.push(options) },
}));
vi.mock('./api.ts', () => ({ useTips: () => ({ data: tips.data }) }));
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));

const BOTH: Tips = {
  oneTips: { id: 3, title: 'Your KYC', content: 'Please verify' },
  allTips: { id: 1, title: 'Welcome', content: 'Demo money' },
};

beforeEach(() => {
  vi.useFakeTimers();
  shown.length = 0;
  localStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('tip popups', () => {
  it("shows the user's own tip first and the tip for everyone 500 ms later", () => {
    tips.data = BOTH;
    render(<TipPopups />);
    act(() => vi.advanceTimersByTime(0));
    expect(shown.map((tip) => tip.title)).toEqual(['Your KYC']);
    act(() => vi.advanceTimersByTime(SECOND_TIP_DELAY_MS - 1));
    expect(shown).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(shown.map((tip) => tip.title)).toEqual(['Your KYC', 'Welcome']);
  });

  it('shows a tip again until it is read, then never', () => {
    tips.data = BOTH;
    const first = render(<TipPopups />);
    act(() => vi.advanceTimersByTime(SECOND_TIP_DELAY_MS));
    shown[1]?.onConfirm?.();
    first.unmount();
    shown.length = 0;

    render(<TipPopups />);
    act(() => vi.advanceTimersByTime(SECOND_TIP_DELAY_MS * 2));
    expect(shown.map((tip) => tip.title)).toEqual(['Your KYC']);
  });

  it('shows nothing without tips', () => {
    tips.data = { oneTips: null, allTips: null };
    render(<TipPopups />);
    act(() => vi.advanceTimersByTime(SECOND_TIP_DELAY_MS * 2));
    expect(shown).toEqual([]);
  });
});

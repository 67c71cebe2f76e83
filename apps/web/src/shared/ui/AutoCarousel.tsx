import { type ReactNode, useEffect, useState } from 'react';

/** Spec §9: banners and notices turn every 5 s and take 1 s to move. */
export const AUTOPLAY_MS = 5000;
export const TRANSITION_MS = 1000;

interface AutoCarouselProps {
  items: ReactNode[];
  direction: 'horizontal' | 'vertical';
  /** Height of one slide in px (vertical tickers); horizontal slides take the width. */
  height?: number;
  dots?: boolean;
  label: string;
}

/** A looping carousel whose timings the spec fixes (antd-mobile's Swiper has no transition-duration setting). */
export function AutoCarousel({ items, direction, height, dots = false, label }: AutoCarouselProps) {
  const [index, setIndex] = useState(0);
  const count = items.length;
  useEffect(() => {
    if (count < 2) return;
    const timer = setInterval(() => setIndex((current) => (current + 1) % count), AUTOPLAY_MS);
    return () => clearInterval(timer);
  }, [count]);
  const shown = count === 0 ? 0 : index % count;
  const offset =
    direction === 'horizontal' ? `translateX(-${shown * 100}%)` : `translateY(-${shown * (height ?? 0)}px)`;
  return (
    <section aria-label={label} style={{ position: 'relative', overflow: 'hidden', height }}>
      <div
        style={{
          display: 'flex',
          flexDirection: direction === 'horizontal' ? 'row' : 'column',
          transform: offset,
          transition: `transform ${TRANSITION_MS}ms ease`,
        }}
      >
        {items.map((item, position) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: slides are positional
            key={position}
            style={{ flex: '0 0 100%', width: '100%', height }}
            aria-hidden={position !== shown}
          >
            {item}
          </div>
        ))}
      </div>
      {dots && count > 1 ? (
        <div
          style={{
            position: 'absolute',
            bottom: 8,
            width: '100%',
            display: 'flex',
            justifyContent: 'center',
            gap: 4,
          }}
        >
          {items.map((_, position) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: one dot per slide position
              key={position}
              style={{
                width: position === shown ? 14 : 6,
                height: 4,
                borderRadius: 2,
                background: position === shown ? 'var(--hy-accent)' : 'rgba(255,255,255,0.5)',
                transition: 'width 300ms',
              }}
            />
          ))}
        </div>
      ) : null}
    </section>
  );
}

import { DEFAULT_CHAIN } from '@halyard/rules';
import { ActionSheet } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAIN_LABELS, type CoinChain, type WalletCoin } from './wallet-api.ts';

interface CoinChainPickerProps {
  coins: WalletCoin[];
  coin: string;
  chain: number | null;
  /** Only chains open for this direction are offered. */
  direction: 'isin' | 'isout';
  onCoin(coin: string): void;
  onChain(chain: number): void;
}

/** The chains of a coin open in one direction. */
export function openChains(coins: WalletCoin[], coin: string, direction: 'isin' | 'isout'): CoinChain[] {
  return coins.find((entry) => entry.coin === coin)?.chains.filter((chain) => chain[direction]) ?? [];
}

/** Coin (a sheet) and chain (ETH 1 / BNB 56 chips) of a deposit or withdrawal. */
export function CoinChainPicker({ coins, coin, chain, direction, onCoin, onChain }: CoinChainPickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="hy-field">
        <div className="hy-field-label">{t('funds.coin')}</div>
        <button
          type="button"
          className="hy-field-box hy-picker"
          data-testid="coin-picker"
          onClick={() => setOpen(true)}
        >
          <b>{coin || '--'}</b>
          <DownFill fontSize={10} />
        </button>
      </div>
      <div className="hy-field">
        <div className="hy-field-label">{t('funds.chain')}</div>
        <div className="hy-chip-row">
          {openChains(coins, coin, direction).map((entry) => (
            <button
              key={entry.chain}
              type="button"
              aria-pressed={entry.chain === chain}
              data-testid={`chain-${entry.chain}`}
              className={entry.chain === chain ? 'hy-chip active' : 'hy-chip'}
              onClick={() => onChain(entry.chain)}
            >
              {CHAIN_LABELS[entry.chain] ?? entry.blockname}
            </button>
          ))}
        </div>
      </div>
      <ActionSheet
        visible={open}
        onClose={() => setOpen(false)}
        cancelText={t('common.cancel')}
        actions={coins
          .filter((entry) => entry[direction])
          .map((entry) => ({
            key: entry.coin,
            text: entry.coin,
            onClick: () => {
              onCoin(entry.coin);
              setOpen(false);
            },
          }))}
      />
    </>
  );
}

/** The chosen coin and chain; the chain falls back to BNB chain (56), else the coin's first open chain. */
export function useCoinChain(coins: WalletCoin[] | undefined, direction: 'isin' | 'isout', initial = 'USDT') {
  const [picked, setPicked] = useState<{ coin: string; chain: number | null }>({
    coin: initial,
    chain: null,
  });
  const list = coins ?? [];
  const coin = list.some((entry) => entry.coin === picked.coin && entry[direction])
    ? picked.coin
    : (list.find((entry) => entry[direction])?.coin ?? '');
  const chains = openChains(list, coin, direction);
  const chain =
    chains.find((entry) => entry.chain === picked.chain)?.chain ??
    chains.find((entry) => entry.chain === DEFAULT_CHAIN)?.chain ??
    chains[0]?.chain ??
    null;
  return {
    coin,
    chain,
    entry: chains.find((entry) => entry.chain === chain) ?? null,
    setCoin: (next: string) => setPicked({ coin: next, chain: null }),
    setChain: (next: number) => setPicked({ coin, chain: next }),
  };
}

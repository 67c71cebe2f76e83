import { shortAddress } from '@halyard/rules';
import { ActionSheet, Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWallet } from './wallet-store.ts';

/** The actions bring viem: fetched on the first tap, not with the page. */
const walletActions = () => import('./wallet.ts');

/** The top-bar wallet control: connect (and sign in), or the short address with a disconnect sheet. */
export function WalletButton() {
  const { t } = useTranslation();
  const { address, connected, connecting } = useWallet();
  const [sheet, setSheet] = useState(false);
  if (!connected || !address) {
    return (
      <Button
        size="mini"
        color="primary"
        shape="rounded"
        loading={connecting}
        onClick={() => void walletActions().then(({ connectWallet }) => connectWallet())}
      >
        {t('wallet.connect')}
      </Button>
    );
  }
  return (
    <>
      <Button size="mini" shape="rounded" onClick={() => setSheet(true)} data-testid="wallet-address">
        {shortAddress(address)}
      </Button>
      <ActionSheet
        visible={sheet}
        onClose={() => setSheet(false)}
        cancelText={t('common.cancel')}
        actions={[
          {
            key: 'disconnect',
            text: t('wallet.disconnect'),
            danger: true,
            onClick: () => void walletActions().then(({ disconnectWallet }) => disconnectWallet()),
          },
        ]}
        onAction={() => setSheet(false)}
      />
    </>
  );
}

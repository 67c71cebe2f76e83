import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/http.ts';
import type { WalletName } from './api.ts';

/** One chain of a wallet coin (spec §3 "Wallet coin entry"). */
export interface CoinChain {
  chain: number;
  blockname: string;
  isin: boolean;
  isout: boolean;
  depositMin: string;
  withdrawMin: string;
  withdrawMax: string;
  withdrawDailyMax: string;
  withdrawFee: string;
  confirmations: number;
}

export interface WalletCoin {
  coin: string;
  isin: boolean;
  isout: boolean;
  chains: CoinChain[];
}

export interface DepositAddress {
  coin: string;
  chain: number;
  blockname: string;
  address: string;
  /** The coin's token contract on this chain. */
  contract: `0x${string}`;
  min: string;
  confirmations: number;
  /** EIP-681 URI for the QR code. */
  uri: string;
}

export type RecordState = 'waiting' | 'completed' | 'rejected';

export interface ChainRecord {
  id: number;
  coin: string;
  blockname: string;
  address: string;
  amount: string;
  fee?: string;
  state: RecordState;
  txHash: string | null;
  reason: string | null;
  time: number;
}

export interface SavedAddress {
  id: number;
  coin: string;
  chain: number;
  blockname: string;
  address: string;
  remark: string;
}

export interface FlashPair {
  from: string;
  to: string;
  min: string;
  max: string;
  rate: string;
  /** The fee the rate already takes, as a fraction (the server's spread). */
  feeRate: string;
  quoteId: string;
  expiresAt: number;
}

export interface ExchangeRecord {
  id: number;
  from: string;
  to: string;
  consumed: string;
  received: string;
  rate: string;
  time: number;
}

/** Spec §9: chains are Ethereum (1) and BNB chain (56). */
export const CHAIN_LABELS: Record<number, string> = { 1: 'ETH (ERC20)', 56: 'BNB (BEP20)' };

const RECORDS_POLL_MS = 3000;
const RECORD_LIMIT = 20;

const polledWhileWaiting = (records: ChainRecord[] | undefined) =>
  records?.some((record) => record.state === 'waiting') ? RECORDS_POLL_MS : false;

export function useWalletCoins() {
  return useQuery({
    queryKey: ['wallet', 'coins'],
    queryFn: () => api.get<WalletCoin[]>('/account/coins'),
    staleTime: 60_000,
  });
}

/** `allowed`: the user has done the steps a deposit needs (DepositSteps); until then nothing is asked. */
export function useDepositAddress(coin: string, chain: number | null, allowed: boolean) {
  return useQuery({
    queryKey: ['wallet', 'address', coin, chain],
    queryFn: () => api.get<DepositAddress>('/account/getCoinAddress', { coin, chain }),
    enabled: allowed && coin !== '' && chain !== null,
  });
}

/**
 * Deposit records, polled while one is still confirming (waiting → completed)
 * and until `watchUntil` (ms) after a transfer was sent, before the watcher has seen it.
 */
export function useDepositRecords(coin: string, watchUntil = 0) {
  return useQuery({
    queryKey: ['wallet', 'deposits', coin],
    queryFn: () => api.get<ChainRecord[]>('/account/rechargeRecord', { coin, page: 1, limit: RECORD_LIMIT }),
    enabled: coin !== '',
    refetchInterval: (query) =>
      Date.now() < watchUntil ? RECORDS_POLL_MS : polledWhileWaiting(query.state.data),
  });
}

/** A coin's token on one chain, from /account/getContractInfo. */
export interface TokenContract {
  coin: string;
  chain: number;
  contract: string;
  decimals: number;
}

/** The token contracts and their decimals; they change only with a deployment. */
export function useTokenContracts() {
  return useQuery({
    queryKey: ['wallet', 'contracts'],
    queryFn: () => api.get<{ tokens: TokenContract[] }>('/account/getContractInfo'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useWithdrawRecords(coin: string) {
  return useQuery({
    queryKey: ['wallet', 'withdrawals', coin],
    queryFn: () => api.get<ChainRecord[]>('/account/withdrawRecord', { coin, page: 1, limit: RECORD_LIMIT }),
    enabled: coin !== '',
    refetchInterval: (query) => polledWhileWaiting(query.state.data),
  });
}

export function demoDeposit(coin: string, chain: number, amount: string) {
  return api.post('/account/demoDeposit', { coin, chain, number: amount });
}

export function useAddressBook(coin: string) {
  return useQuery({
    queryKey: ['wallet', 'addressBook', coin],
    queryFn: () => api.get<SavedAddress[]>('/account/addressList', { coin }),
    enabled: coin !== '',
  });
}

export function addAddress(input: { coin: string; chain: number; address: string; remark: string }) {
  return api.post<SavedAddress>('/account/addAddress', input);
}

export function deleteAddress(id: number) {
  return api.post('/account/deleteAddress', { id });
}

export function sendWithdrawal(input: {
  coin: string;
  chain: number;
  address: string;
  number: string;
  payPassword: string;
}) {
  return api.post<ChainRecord>('/account/sendCoinOrder', input, { idempotent: true });
}

/** Spot ⇄ futures goes through contractTransfer, spot ⇄ fiat through c2cTransfer (spec §7). */
export function transferBetween(coin: string, amount: string, from: WalletName, to: WalletName) {
  const url = from === 'fiat' || to === 'fiat' ? '/account/c2cTransfer' : '/account/contractTransfer';
  return api.post(url, { coin, number: amount, from, to }, { idempotent: true });
}

/** Flash pairs, each with a quote that holds its rate until `expiresAt`. */
export function useFlashPairs() {
  return useQuery({
    queryKey: ['flash', 'pairs'],
    queryFn: () => api.get<FlashPair[]>('/flash/flashCoin'),
  });
}

export function useFlashRecords() {
  return useQuery({
    queryKey: ['flash', 'records'],
    queryFn: () => api.get<ExchangeRecord[]>('/flash/flashOrder', { page: 1, limit: RECORD_LIMIT }),
  });
}

export function convertAtQuote(quoteId: string, amount: string) {
  return api.post<ExchangeRecord>('/flash/addFlash', { quoteId, number: amount }, { idempotent: true });
}

import {
  type Address,
  BaseError,
  ExecutionRevertedError,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  InsufficientFundsError,
  keccak256,
  parseTransaction,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createChainReader } from './chains.ts';
import type { ChainId } from './config.ts';

export interface TokenTransfer {
  chainId: ChainId;
  token: Address;
  to: Address;
  units: bigint;
}

export interface SignedTransfer {
  hash: Hex;
  raw: Hex;
}

/** EIP-1559 fees in wei. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the node says a transfer needs: its gas limit and today's fees. */
export interface Quote {
  gas: bigint;
  fees: Fees;
}

/** Thrown when the chain refuses a transfer outright (it would revert, or the hot wallet cannot pay gas). */
export class TransferRefused extends Error {
  override name = 'TransferRefused';
}

/** A native-coin transfer to oneself costs exactly this; it is how a nonce is cancelled. */
const CANCEL_GAS = 21_000n;
/** Headroom on the node's gas estimate: the state may change between the estimate and the block. */
const GAS_HEADROOM_PERCENT = 120n;

/**
 * The hot wallet: signs ERC-20 `transfer` calls (never `approve` or
 * `transferFrom`, AMENDMENTS A1) and, for an operator, a cancel at a nonce.
 * Signing is local and takes the nonce from the caller (the store's counter,
 * see nonces.ts), never from the node; signing and sending are separate so
 * the caller records the transaction before anything leaves.
 */
export interface Signer {
  address: Address;
  /** Gas and fees for a transfer; TransferRefused when the node says it would revert. */
  quote(transfer: TokenTransfer): Promise<Quote>;
  /** The fees the node suggests now. */
  fees(chainId: ChainId): Promise<Fees>;
  signTransfer(transfer: TokenTransfer, nonce: number, gas: bigint, fees: Fees): Promise<SignedTransfer>;
  /** The same transaction as `raw` with other fees (a bump: same nonce, same call). */
  resign(chainId: ChainId, raw: Hex, fees: Fees): Promise<SignedTransfer>;
  /** A zero-value transfer to the hot wallet itself at `nonce`: once mined, nothing else can use that nonce. */
  signCancel(chainId: ChainId, nonce: number, fees: Fees): Promise<SignedTransfer>;
  broadcast(chainId: ChainId, raw: Hex): Promise<void>;
  /** The receipt of a mined transaction; null while it is not mined. */
  receipt(chainId: ChainId, hash: Hex): Promise<TransactionReceipt | null>;
  /** How many transactions of the hot wallet are mined, at the head or at a given block. */
  minedNonce(chainId: ChainId, blockNumber?: number): Promise<number>;
  head(chainId: ChainId): Promise<number>;
}

export function createSigner(privateKey: Hex, rpcUrls: ReadonlyMap<ChainId, string>): Signer {
  const account = privateKeyToAccount(privateKey);
  const clientOf = (chainId: ChainId) => {
    const url = rpcUrls.get(chainId);
    if (!url) throw new Error(`no RPC URL for chain ${chainId}`);
    return createChainReader(chainId, url).client;
  };
  const sign = async (request: Parameters<typeof account.signTransaction>[0]): Promise<SignedTransfer> => {
    const raw = await account.signTransaction(request);
    return { raw, hash: keccak256(raw) };
  };
  const transferData = ({ to, units }: TokenTransfer) =>
    encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] });

  return {
    address: account.address,

    async quote(transfer) {
      const client = clientOf(transfer.chainId);
      try {
        const estimate = await client.estimateGas({
          account: account.address,
          to: transfer.token,
          data: transferData(transfer),
        });
        return { gas: (estimate * GAS_HEADROOM_PERCENT) / 100n, fees: await this.fees(transfer.chainId) };
      } catch (error) {
        if (isRefusal(error))
          throw new TransferRefused(error instanceof Error ? error.message : String(error));
        throw error;
      }
    },

    async fees(chainId) {
      const { maxFeePerGas, maxPriorityFeePerGas } = await clientOf(chainId).estimateFeesPerGas();
      return { maxFeePerGas, maxPriorityFeePerGas };
    },

    signTransfer(transfer, nonce, gas, fees) {
      return sign({
        type: 'eip1559',
        chainId: transfer.chainId,
        to: transfer.token,
        data: transferData(transfer),
        value: 0n,
        nonce,
        gas,
        ...fees,
      });
    },

    resign(chainId, raw, fees) {
      const { to, data, value, nonce, gas } = parseTransaction(raw);
      return sign({ type: 'eip1559', chainId, to, data, value, nonce, gas, ...fees });
    },

    signCancel(chainId, nonce, fees) {
      return sign({
        type: 'eip1559',
        chainId,
        to: account.address,
        value: 0n,
        nonce,
        gas: CANCEL_GAS,
        ...fees,
      });
    },

    async broadcast(chainId, raw) {
      const client = clientOf(chainId);
      try {
        await client.sendRawTransaction({ serializedTransaction: raw });
      } catch (error) {
        // A re-send of bytes the node already has (pooled or mined) is not a failure. Nodes word
        // that differently ("already known", "nonce too low", ganache's "transaction underpriced"),
        // so ask the node for the transaction itself rather than parse its message.
        if (await client.getTransaction({ hash: keccak256(raw) }).then(Boolean, () => false)) return;
        throw error;
      }
    },

    async receipt(chainId, hash) {
      try {
        return await clientOf(chainId).getTransactionReceipt({ hash });
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return null;
        throw error;
      }
    },

    minedNonce(chainId, blockNumber) {
      return clientOf(chainId).getTransactionCount({
        address: account.address,
        ...(blockNumber === undefined ? { blockTag: 'latest' } : { blockNumber: BigInt(blockNumber) }),
      });
    },

    async head(chainId) {
      return Number(await clientOf(chainId).getBlockNumber());
    },
  };
}

/**
 * The node refused the transaction itself: it would revert (the hot wallet
 * lacks the tokens, the token refuses) or cannot pay for gas. Nodes word a
 * revert differently (geth "execution reverted", ganache "VM Exception …
 * revert"), so the RPC details are read too. Anything else (a timeout, a node
 * down) is not a refusal: the withdrawal stays queued and is tried again.
 */
export function isRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const refused = error.walk(
    (cause) =>
      cause instanceof ExecutionRevertedError ||
      cause instanceof InsufficientFundsError ||
      (cause instanceof BaseError && /\brevert/i.test(cause.details)),
  );
  return refused !== null;
}

import {
  type Address,
  BaseError,
  createWalletClient,
  ExecutionRevertedError,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  InsufficientFundsError,
  keccak256,
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainReader } from './chains.ts';
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

export type TransferOutcome = 'success' | 'reverted' | 'pending';

/** Thrown when the chain refuses a transfer outright (it would revert, or the hot wallet cannot pay gas). */
export class TransferRefused extends Error {
  override name = 'TransferRefused';
}

/**
 * The hot wallet: signs ERC-20 `transfer` calls (never `approve` or
 * `transferFrom`, AMENDMENTS A1). Signing and sending are separate so the
 * caller can record the hash before anything leaves: a crash between the two
 * re-sends the same signed bytes, which the chain accepts at most once.
 */
export interface Signer {
  address: Address;
  sign(transfer: TokenTransfer): Promise<SignedTransfer>;
  broadcast(chainId: ChainId, raw: Hex): Promise<void>;
  outcome(chainId: ChainId, hash: Hex): Promise<TransferOutcome>;
}

export function createSigner(privateKey: Hex, rpcUrls: ReadonlyMap<ChainId, string>): Signer {
  const account = privateKeyToAccount(privateKey);
  const rpcOf = (chainId: ChainId): string => {
    const url = rpcUrls.get(chainId);
    if (!url) throw new Error(`no RPC URL for chain ${chainId}`);
    return url;
  };
  const readerOf = (chainId: ChainId) => createChainReader(chainId, rpcOf(chainId));

  return {
    address: account.address,

    async sign({ chainId, token, to, units }) {
      const rpcUrl = rpcOf(chainId);
      const wallet = createWalletClient({
        account,
        chain: chainDefinition(chainId, rpcUrl),
        transport: http(rpcUrl),
      });
      try {
        const request = await wallet.prepareTransactionRequest({
          to: token,
          data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] }),
        });
        const raw = await wallet.signTransaction(request);
        return { raw, hash: keccak256(raw) };
      } catch (error) {
        if (isRefusal(error))
          throw new TransferRefused(error instanceof Error ? error.message : String(error));
        throw error;
      }
    },

    async broadcast(chainId, raw) {
      const { client } = readerOf(chainId);
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

    async outcome(chainId, hash) {
      try {
        const receipt = await readerOf(chainId).client.getTransactionReceipt({ hash });
        return receipt.status;
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return 'pending';
        throw error;
      }
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
function isRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const refused = error.walk(
    (cause) =>
      cause instanceof ExecutionRevertedError ||
      cause instanceof InsufficientFundsError ||
      (cause instanceof BaseError && /\brevert/i.test(cause.details)),
  );
  return refused !== null;
}

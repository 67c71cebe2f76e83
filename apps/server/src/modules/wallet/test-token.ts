/**
 * The play token of the demo chain and the chain tests: a minimal ERC-20 with
 * mint (deployer only) and transfer, and deliberately without approve or
 * transferFrom (AMENDMENTS A1: a deposit is a plain transfer). Compiled once
 * with solc 0.8.26 (optimizer 200 runs, evmVersion paris) from this source:
 *
 *     // SPDX-License-Identifier: MIT
 *     pragma solidity 0.8.26;
 *
 *     /// A minimal ERC-20 for tests and the demo chain: the deployer mints play tokens.
 *     /// Deliberately without approve/transferFrom (AMENDMENTS A1): deposits are plain transfers.
 *     contract TestToken {
 *         string public name;
 *         string public symbol;
 *         uint8 public immutable decimals;
 *         address public immutable minter;
 *         uint256 public totalSupply;
 *         mapping(address => uint256) public balanceOf;
 *
 *         event Transfer(address indexed from, address indexed to, uint256 value);
 *
 *         constructor(string memory name_, string memory symbol_, uint8 decimals_) {
 *             name = name_;
 *             symbol = symbol_;
 *             decimals = decimals_;
 *             minter = msg.sender;
 *         }
 *
 *         function mint(address to, uint256 value) external {
 *             require(msg.sender == minter, "not minter");
 *             totalSupply += value;
 *             balanceOf[to] += value;
 *             emit Transfer(address(0), to, value);
 *         }
 *
 *         function transfer(address to, uint256 value) external returns (bool) {
 *             _move(msg.sender, to, value);
 *             return true;
 *         }
 *
 *         function _move(address from, address to, uint256 value) private {
 *             require(balanceOf[from] >= value, "balance");
 *             balanceOf[from] -= value;
 *             balanceOf[to] += value;
 *             emit Transfer(from, to, value);
 *         }
 *     }
 */

export const TEST_TOKEN_ABI = [
  {
    inputs: [
      {
        internalType: 'string',
        name: 'name_',
        type: 'string',
      },
      {
        internalType: 'string',
        name: 'symbol_',
        type: 'string',
      },
      {
        internalType: 'uint8',
        name: 'decimals_',
        type: 'uint8',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'constructor',
  },
  {
    anonymous: false,
    inputs: [
      {
        indexed: true,
        internalType: 'address',
        name: 'from',
        type: 'address',
      },
      {
        indexed: true,
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        indexed: false,
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'Transfer',
    type: 'event',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    name: 'balanceOf',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'decimals',
    outputs: [
      {
        internalType: 'uint8',
        name: '',
        type: 'uint8',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'mint',
    outputs: [],
    stateMutability: 'nonpayable',
    type: 'function',
  },
  {
    inputs: [],
    name: 'minter',
    outputs: [
      {
        internalType: 'address',
        name: '',
        type: 'address',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'name',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'symbol',
    outputs: [
      {
        internalType: 'string',
        name: '',
        type: 'string',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [],
    name: 'totalSupply',
    outputs: [
      {
        internalType: 'uint256',
        name: '',
        type: 'uint256',
      },
    ],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      {
        internalType: 'address',
        name: 'to',
        type: 'address',
      },
      {
        internalType: 'uint256',
        name: 'value',
        type: 'uint256',
      },
    ],
    name: 'transfer',
    outputs: [
      {
        internalType: 'bool',
        name: '',
        type: 'bool',
      },
    ],
    stateMutability: 'nonpayable',
    type: 'function',
  },
] as const;

export const TEST_TOKEN_BYTECODE: `0x${string}` = `0x${[
  '60c060405234801561001057600080fd5b506040516108a93803806108a983398101604081905261002f91610113565b',
  '600061003b848261021f565b506001610048838261021f565b5060ff1660805250503360a0526102dd565b634e487b71',
  '60e01b600052604160045260246000fd5b600082601f83011261008157600080fd5b81516001600160401b0381111561',
  '009a5761009a61005a565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100c8',
  '576100c861005a565b6040528181528382016020018510156100e057600080fd5b60005b828110156100ff5760208186',
  '01810151838301820152016100e3565b506000918101602001919091529392505050565b600080600060608486031215',
  '61012857600080fd5b83516001600160401b0381111561013e57600080fd5b61014a86828701610070565b6020860151',
  '90945090506001600160401b0381111561016857600080fd5b61017486828701610070565b925050604084015160ff81',
  '16811461018b57600080fd5b809150509250925092565b600181811c908216806101aa57607f821691505b6020821081',
  '036101ca57634e487b7160e01b600052602260045260246000fd5b50919050565b601f82111561021a57806000526020',
  '600020601f840160051c810160208510156101f75750805b601f840160051c820191505b818110156102175760008155',
  '600101610203565b50505b505050565b81516001600160401b038111156102385761023861005a565b61024c81610246',
  '8454610196565b846101d0565b6020601f82116001811461028057600083156102685750848201515b60001960038590',
  '1b1c1916600184901b178455610217565b600084815260208120601f198516915b828110156102b05787850151825560',
  '209485019460019092019101610290565b50848210156102ce5786840151600019600387901b60f8161c191681555b50',
  '505050600190811b01905550565b60805160a0516105a16103086000396000818160b001526102330152600061010601',
  '526105a16000f3fe608060405234801561001057600080fd5b50600436106100885760003560e01c806340c10f191161',
  '005b57806340c10f191461013a57806370a082311461014f57806395d89b411461016f578063a9059cbb146101775760',
  '0080fd5b806306fdde031461008d57806307546172146100ab57806318160ddd146100ea578063313ce5671461010157',
  '5b600080fd5b61009561019a565b6040516100a2919061043f565b60405180910390f35b6100d27f0000000000000000',
  '00000000000000000000000000000000000000000000000081565b6040516001600160a01b0390911681526020016100',
  'a2565b6100f360025481565b6040519081526020016100a2565b6101287f000000000000000000000000000000000000',
  '000000000000000000000000000081565b60405160ff90911681526020016100a2565b61014d6101483660046104a956',
  '5b610228565b005b6100f361015d3660046104d3565b60036020526000908152604090205481565b61009561031b565b',
  '61018a6101853660046104a9565b610328565b60405190151581526020016100a2565b600080546101a7906104f5565b',
  '80601f01602080910402602001604051908101604052809291908181526020018280546101d3906104f5565b80156102',
  '205780601f106101f557610100808354040283529160200191610220565b820191906000526020600020905b81548152',
  '906001019060200180831161020357829003601f168201915b505050505081565b336001600160a01b037f0000000000',
  '00000000000000000000000000000000000000000000000000000016146102925760405162461bcd60e51b8152602060',
  '04820152600a6024820152693737ba1036b4b73a32b960b11b60448201526064015b60405180910390fd5b8060026000',
  '8282546102a49190610545565b90915550506001600160a01b0382166000908152600360205260408120805483929061',
  '02d1908490610545565b90915550506040518181526001600160a01b038316906000907fddf252ad1be2c89b69c2b068',
  'fc378daa952ba7f163c4a11628f55a4df523b3ef9060200160405180910390a35050565b600180546101a7906104f556',
  '5b600061033533848461033f565b5060015b92915050565b6001600160a01b0383166000908152600360205260409020',
  '548111156103915760405162461bcd60e51b815260206004820152600760248201526662616c616e636560c81b604482',
  '0152606401610289565b6001600160a01b038316600090815260036020526040812080548392906103b9908490610558',
  '565b90915550506001600160a01b038216600090815260036020526040812080548392906103e6908490610545565b92',
  '505081905550816001600160a01b0316836001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163',
  'c4a11628f55a4df523b3ef8360405161043291815260200190565b60405180910390a3505050565b6020815260008251',
  '80602084015260005b8181101561046d5760208186018101516040868401015201610450565b50600060408285010152',
  '6040601f19601f83011684010191505092915050565b80356001600160a01b03811681146104a457600080fd5b919050',
  '565b600080604083850312156104bc57600080fd5b6104c58361048d565b946020939093013593505050565b60006020',
  '82840312156104e557600080fd5b6104ee8261048d565b9392505050565b600181811c9082168061050957607f821691',
  '505b60208210810361052957634e487b7160e01b600052602260045260246000fd5b50919050565b634e487b7160e01b',
  '600052601160045260246000fd5b808201808211156103395761033961052f565b818103818111156103395761033961',
  '052f56fea26469706673582212209ab8777538fe12c35d8d456732f3fa00b39afee8866b3f0fd9d50028ed49c6e76473',
  '6f6c634300081a0033',
].join('')}`;

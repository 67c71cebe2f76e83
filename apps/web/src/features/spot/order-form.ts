import type { OrderSide, OrderStyle } from '@halyard/rules';

/** The spot order form (spec §4): side, style, the typed price and amount and the slider. */
export interface OrderForm {
  side: OrderSide;
  style: OrderStyle;
  price: string;
  amount: string;
  /** Slider position, a whole percent 0–100. */
  percent: number;
}

export type OrderFormAction =
  | { type: 'side'; side: OrderSide }
  | { type: 'style'; style: OrderStyle }
  | { type: 'price'; price: string }
  | { type: 'amount'; amount: string }
  /** The slider moved; `amount` is spotSliderAmount for that position. */
  | { type: 'slider'; percent: number; amount: string }
  /** A book level was tapped. */
  | { type: 'level'; price: string }
  /** The pair's latest price arrived (fills an empty limit price once). */
  | { type: 'latest'; price: string }
  /** An order was placed: amounts start over, the price stays for the next one. */
  | { type: 'placed' };

/** Spec §4: market is the default style. */
export function initialOrderForm(side: OrderSide): OrderForm {
  return { side, style: 'market', price: '', amount: '', percent: 0 };
}

const cleared = { amount: '', percent: 0 } as const;

export function orderFormReducer(form: OrderForm, action: OrderFormAction): OrderForm {
  switch (action.type) {
    case 'side':
      return action.side === form.side ? form : { ...form, ...cleared, side: action.side };
    case 'style':
      // Spec §4: switching limit/market clears the amounts and the slider.
      return action.style === form.style ? form : { ...form, ...cleared, style: action.style };
    case 'price':
      return { ...form, price: action.price, percent: 0 };
    case 'amount':
      return { ...form, amount: action.amount, percent: 0 };
    case 'slider':
      return { ...form, percent: action.percent, amount: action.amount };
    case 'level':
      // Only a limit order has a price to set; a market order trades at the latest.
      return form.style === 'limit' ? { ...form, price: action.price, percent: 0 } : form;
    case 'latest':
      return form.price === '' ? { ...form, price: action.price } : form;
    case 'placed':
      return { ...form, ...cleared };
  }
}

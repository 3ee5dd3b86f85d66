import Type from 'typebox';

// The card of spec 2.1, one definition: the merchant API validates with it, the hosted form and its
// browser script read their patterns and lengths from it.

// Every free-text field carries this pattern: no field may hold U+0000..U+001F.
export const NO_CONTROL_CHARACTERS_PATTERN = '^[^\\u0000-\\u001F]*$';
export const PAN_PATTERN = '^ *(?:[0-9] *){16,19}$';
export const CARD_EXPIRES_PATTERN = '^(?:0[1-9]|1[0-2])/[0-9]{4}$';
export const CVV_PATTERN = '^[0-9]{3}$';
export const PAN_TEXT_LENGTH_MAX = 32;
export const HOLDER_LENGTH_MIN = 5;
export const HOLDER_LENGTH_MAX = 50;

export const CardSchema = Type.Object(
  {
    pan: Type.String({
      maxLength: PAN_TEXT_LENGTH_MAX,
      pattern: PAN_PATTERN,
      description: 'Card number: 16 to 19 digits, spaces allowed between them',
    }),
    expires: Type.String({ pattern: CARD_EXPIRES_PATTERN, description: 'Expiry as mm/yyyy, e.g. 09/2030' }),
    holder: Type.String({
      minLength: HOLDER_LENGTH_MIN,
      maxLength: HOLDER_LENGTH_MAX,
      pattern: NO_CONTROL_CHARACTERS_PATTERN,
      description: 'Cardholder name as printed on the card',
    }),
    cvv: Type.String({ pattern: CVV_PATTERN, description: 'Card security code: exactly 3 digits' }),
  },
  { additionalProperties: false, description: 'Host-to-Host card data; all four fields are required' },
);

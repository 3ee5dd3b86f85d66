// spec 5.6: the callback JWT (HS512 under sign_key) and the AES-256-CBC `secure` of the merchant key. One
// definition, the adapter kit's: Payrail verifies callbacks with the very code adapters sign them with.
export {
  CallbackCryptoError,
  callbackSignatureDigest,
  decryptMerchantKey,
  encryptMerchantKey,
  signCallbackJwt,
  verifyCallbackJwt,
} from '../../../packages/adapter-kit/src/callback-crypto.ts';

import type { UserRow } from '../../../flows/core-users.ts';

// An operator's view of a profile: everything but the password hash, which no row here carries.
export function presentProfile(user: UserRow) {
  return {
    id: user.id,
    kind: user.kind,
    email: user.email,
    phone: user.phone,
    name: user.name,
    surname: user.surname,
    fullname: [user.name, user.surname].filter(Boolean).join(' '),
    company_name: user.companyName,
    wallet_type: user.walletType,
    current_currency: user.currentCurrency,
    country: user.country,
    kyc_status: user.kycStatus,
    wallet_pin_enabled: user.walletPinEnabled,
    status: user.status,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

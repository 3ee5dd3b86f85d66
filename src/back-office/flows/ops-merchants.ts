import type { AppContext } from '../../app-context.ts';
import { getMerchantCommissions, type PresentedCommissions } from '../../ledger/index.ts';
import { getMerchant, listMerchantGateways, type GatewayRow, type MerchantWithKeys } from '../../payments/index.ts';
import { countMembersOf } from '../store/member-counts-repo.ts';

export interface OperatorMerchantView {
  merchant: MerchantWithKeys;
  gateways: GatewayRow[];
  commissions: PresentedCommissions | null; // null: the operator's role may not read them
  membersCount: number;
}

// Everything the console's merchant page shows, read through the modules' flows (404 for an unknown merchant).
export async function operatorMerchantView(context: AppContext, merchantId: number, withCommissions: boolean): Promise<OperatorMerchantView> {
  const db = context.database.db;
  const merchant = await getMerchant(db, merchantId);
  const [gateways, commissions, membersCount] = await Promise.all([
    listMerchantGateways(context, merchantId),
    withCommissions ? getMerchantCommissions(db, merchantId) : Promise.resolve(null),
    countMembersOf(db, merchantId),
  ]);
  return { merchant, gateways, commissions, membersCount };
}

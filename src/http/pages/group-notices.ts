// The `?done=` and `?error=` notices of the Groups page and the bonus form (owner-pages.ts notices spreads them in).
export const groupNotices: Record<string, string> = {
  group_created: 'Group created.',
  group_saved: 'Group saved: sales from now on are paid by its new terms.',
  group_deleted: 'Group deleted.',
  group_has_partners: 'Not deleted: the group has partners. Move them to another group first.',
  group_missing: 'No such group in this program.',
  group_name: 'Not saved: a group needs a name of at most 200 characters.',
  group_terms: 'Not saved: choose a commission type from the list.',
  group_rate: 'Not saved: the commission rate must be a positive number, at most 100 for the percent types.',
  group_months: 'Not saved: recurring months is a whole number from 1 to 1200, or empty.',
  group_holding: 'Not saved: the holding period is a whole number of days from 0 to 365, or empty.',
  group_discount:
    "Not saved: a discount needs the processor's coupon id (at most 255 characters) and what it gives in words (at most 300).",
  group_signup: 'Not saved: choose who may join from the list.',
  bonus_booked: 'Bonus booked: it is paid with the commissions once the holding period has passed.',
  bonus_amount: 'Not booked: the amount is a positive number with at most as many decimals as the currency has.',
  bonus_currency: 'Not booked: choose one of the currencies of the program.',
  bonus_description: 'Not booked: say why, in at most 500 characters.',
}

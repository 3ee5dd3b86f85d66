import Type, { type Static } from 'typebox';

const MethodSettingsSchema = Type.Object(
  {
    response_timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, description: 'seconds; default 15' })),
    final_waiting_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, description: 'seconds before the first status check; default 15' })),
    enable_status_checker: Type.Optional(Type.Boolean({ description: 'default true' })),
  },
  { additionalProperties: false },
);

// spec 2.10: the settings block a gateway is configured with, and that is sent to its adapter.
export const GatewaySettingsSchema = Type.Object(
  {
    api_key: Type.String({ minLength: 1, maxLength: 1024 }),
    sign_key: Type.String({ minLength: 32, maxLength: 32, description: 'exactly 32 characters: signs callback JWTs (HS512) and encrypts merchant_private_key' }),
    sandbox: Type.Optional(Type.Boolean()),
    host2host: Type.Optional(Type.Boolean()),
    gateway_settings: Type.Object(
      {
        processing_method: Type.Union([Type.Literal('http_requests'), Type.Literal('rabbit')]),
        full_link: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 })),
        rabbit_url: Type.Optional(Type.String({ maxLength: 2048 })),
        rabbit_user: Type.Optional(Type.String({ maxLength: 255 })),
        rabbit_password: Type.Optional(Type.String({ maxLength: 255 })),
        methods: Type.Optional(
          Type.Object(
            {
              pay: Type.Optional(MethodSettingsSchema),
              payout: Type.Optional(MethodSettingsSchema),
              status: Type.Optional(MethodSettingsSchema),
              callback: Type.Optional(MethodSettingsSchema),
              refund: Type.Optional(MethodSettingsSchema),
              confirm_request: Type.Optional(MethodSettingsSchema),
              decline_request: Type.Optional(MethodSettingsSchema),
              confirm_secure_code: Type.Optional(MethodSettingsSchema),
              resend_otp: Type.Optional(MethodSettingsSchema),
              next_payment_step: Type.Optional(MethodSettingsSchema),
              custom_requisite_fields: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 })),
            },
            { additionalProperties: false },
          ),
        ),
        status_checker_time_rates: Type.Optional(
          Type.Record(Type.String({ pattern: '^[0-9]+-([0-9]+)?$' }), Type.Integer({ minimum: 1, maximum: 86_400 }), { maxProperties: 20 }),
        ),
      },
      { additionalProperties: false },
    ),
    assets: Type.Optional(Type.Record(Type.String({ maxLength: 255 }), Type.String({ maxLength: 1_000_000 }), { maxProperties: 20 })),
    validate_signature: Type.Optional(Type.Boolean()),
    custom_host: Type.Optional(Type.String({ maxLength: 255 })),
    enable_routing: Type.Optional(Type.Boolean()),
    enable_update_amount: Type.Optional(Type.Boolean()),
    enable_change_final_status: Type.Optional(Type.Boolean()),
    decline_payout_on_request_error: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type GatewaySettings = Static<typeof GatewaySettingsSchema>;

export const METHOD_DEFAULTS = { response_timeout: 15, final_waiting_seconds: 15, enable_status_checker: true } as const;

export interface ResolvedMethodSettings {
  responseTimeoutS: number;
  finalWaitingS: number;
  statusCheckerEnabled: boolean;
}

export function methodSettingsOf(settings: GatewaySettings, method: string): ResolvedMethodSettings {
  const methods = settings.gateway_settings.methods as Record<string, Static<typeof MethodSettingsSchema> | undefined> | undefined;
  const configured = methods?.[method] ?? {};
  return {
    responseTimeoutS: configured.response_timeout ?? METHOD_DEFAULTS.response_timeout,
    finalWaitingS: configured.final_waiting_seconds ?? METHOD_DEFAULTS.final_waiting_seconds,
    statusCheckerEnabled: configured.enable_status_checker ?? METHOD_DEFAULTS.enable_status_checker,
  };
}

// Secrets shown to operators only by their last characters.
export function maskedSettings(settings: GatewaySettings): GatewaySettings {
  const mask = (secret: string) => `****${secret.slice(-4)}`;
  const gatewaySettings = { ...settings.gateway_settings };
  if (gatewaySettings.rabbit_password) gatewaySettings.rabbit_password = mask(gatewaySettings.rabbit_password);
  return { ...settings, api_key: mask(settings.api_key), sign_key: mask(settings.sign_key), gateway_settings: gatewaySettings };
}

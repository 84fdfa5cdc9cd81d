export const SIGNATURE_HEADER = 'x-service-signature'

export const placeholder = true

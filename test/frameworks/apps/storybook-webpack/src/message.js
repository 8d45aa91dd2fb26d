export const message = 'HMR-MARK-1'

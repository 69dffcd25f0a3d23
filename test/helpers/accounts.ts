/** The accounts the access tests log in with: an arbiter, and the red player of board1. */
export const REFEREE = { name: 'referee', password: 's3cret', role: 'arbiter' } as const;
export const RED1 = { name: 'red1', password: 'r3d', role: 'player', board: 'board1', side: 'red' } as const;

/** JSON that is already text (stored logs) goes out as is: no parse, no stringify. */
export const jsonText = (text: string, status = 200) =>
  new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8' } })

export const created = (body: unknown) => jsonText(JSON.stringify(body), 201)

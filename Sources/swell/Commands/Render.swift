// PLACEHOLDER, being written by the lead.
let renderVerb = Verb(name: "render", summary: "render a draw list to a raw or PNG file", synopsis: "LIST.json -o FILE", details: "", options: [], run: { _ in 0 })

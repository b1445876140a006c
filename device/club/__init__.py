"""The club network: boxes publish to an MQTT broker, one hub per club keeps and shows it all.

* :mod:`device.club.settings`: the ``[club]`` section of a box's config and the hub's own file.
* :mod:`device.club.topics`: the topic layout and the messages' JSON, shared by both ends.
* :mod:`device.club.publisher`: the box's side, a thread beside the main loop.
* :mod:`device.club.hub`: ``crokiscore club``, the hub (store, broker client, web page).
* :mod:`device.club.cmn`: results in Crokinole Match Notation, and CSV.

docs/club.md describes the topics, the messages, the page and the exports.
"""

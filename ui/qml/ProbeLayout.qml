// Where each probe's card is: floating over the canvas at (x, y) (x < 0: not placed yet) or docked
// in the Probes tab, and whether it is collapsed. One per window, shared by the canvas and the tab.
import QtQml

QtObject {
    property var states: ({})
    /// Bumped on every change, for bindings that read stateOf().
    property int revision: 0

    function stateOf(key) {
        revision
        return states[key] || {docked: false, collapsed: false, x: -1, y: -1}
    }
    function set(key, fields) {
        states[key] = Object.assign({}, stateOf(key), fields)
        revision++
    }
    /// How many of `probes` (RunController.probes) are docked.
    function dockedCount(probes) {
        revision
        return probes.filter(p => stateOf(p.key).docked).length
    }
}

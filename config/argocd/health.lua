-- Argo CD health check for the kinds of intents.transferintent.io (Chain, TokenDefinition,
-- Account, ApiKey, TransferIntent, WebhookEndpoint, Filler). The operator reports Ready on every
-- object, and Stalled or Reconciling, each only while True, with the reason leading the message:
--   Stalled     -> Degraded   (the spec cannot succeed until a person changes it)
--                  Suspended  (the same, for a key, account, webhook endpoint or filler disabled on purpose)
--   Reconciling -> Progressing (waiting for a Chain, an Account or a Secret that may still come)
--   Ready=True  -> Healthy
-- A status older than the spec (observedGeneration behind metadata.generation), or none yet, is
-- Progressing: the controller has not looked at this version (or, for a TransferIntent, it is a
-- new intent, pending by implication).
local hs = { status = "Progressing", message = "Waiting for the operator to report on this object" }
if obj.status == nil or obj.status.conditions == nil then
  if obj.kind == "TransferIntent" then
    -- A new intent's status is not written: pending (unsigned, if gasless) and Ready are implied
    -- until it moves.
    local phase = "pending"
    if obj.spec ~= nil and obj.spec.gasless ~= nil then
      phase = "unsigned"
    end
    hs.message = "The intent is " .. phase .. " (its status is written at its first transition)"
  end
  return hs
end
if obj.metadata.generation ~= nil and (obj.status.observedGeneration == nil or obj.status.observedGeneration < obj.metadata.generation) then
  hs.message = "Waiting for the operator to observe generation " .. obj.metadata.generation
  return hs
end
local ready, stalled, reconciling
for _, condition in ipairs(obj.status.conditions) do
  if condition.status == "True" and condition.type == "Stalled" then
    stalled = condition
  elseif condition.status == "True" and condition.type == "Reconciling" then
    reconciling = condition
  elseif condition.type == "Ready" then
    ready = condition
  end
end
if stalled ~= nil then
  if stalled.reason == "Disabled" or stalled.reason == "OwnerDisabled" then
    hs.status = "Suspended"
  else
    hs.status = "Degraded"
  end
  hs.message = stalled.message
elseif reconciling ~= nil then
  hs.message = reconciling.message
elseif ready ~= nil and ready.status == "True" then
  hs.status = "Healthy"
  hs.message = ready.message
elseif ready ~= nil then
  hs.message = ready.reason .. ": " .. ready.message
end
return hs
